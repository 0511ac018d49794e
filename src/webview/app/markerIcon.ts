import type { RebalanceEventKind } from '../../model/types';
import { s } from './dom';
import { MARKER_PATHS } from './markers';

/** A small standalone icon of a kind, for the legend and the details heading. */
export function markerIcon(kind: RebalanceEventKind): SVGSVGElement {
  return s('svg', { class: 'marker-icon', width: 14, height: 14, viewBox: '-7 -7 14 14', 'aria-hidden': 'true' }, [
    s('path', { d: MARKER_PATHS[kind], class: `marker k-${kind}`, 'fill-rule': 'evenodd' }),
  ]);
}
