/** The demo simulator in virtual time with its GroupAdmin, for the offset and group-administration flow tests. */
import { SimGroupAdmin } from '../../../src/simulator/admin/simGroupAdmin';
import { createDemoSimSource, type SimSource } from '../../../src/simulator/editor/simSource';

export interface SimAdminFixture {
  source: SimSource;
  admin: SimGroupAdmin;
}

/** The demo cluster after `ms` of virtual time: billing-archive is Empty, orders-processor and payments-audit Stable. */
export function demoAdmin(ms = 15000): SimAdminFixture {
  const source = createDemoSimSource({ paced: false });
  source.advance(ms);
  return { source, admin: new SimGroupAdmin(source.simulation) };
}
