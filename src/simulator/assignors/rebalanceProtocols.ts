import type { AssignorName } from './types';

export type RebalanceProtocol = 'EAGER' | 'COOPERATIVE';

/** ConsumerPartitionAssignor.supportedProtocols(): only cooperative-sticky also supports COOPERATIVE (listed first). */
export function supportedRebalanceProtocols(name: AssignorName): RebalanceProtocol[] {
  switch (name) {
    case 'range':
    case 'roundrobin':
    case 'sticky':
      return ['EAGER'];
    case 'cooperative-sticky':
      return ['COOPERATIVE', 'EAGER'];
    default:
      throw new Error(`Unknown assignor "${String(name)}"`);
  }
}
