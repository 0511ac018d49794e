/** groupBy lives in the model layer, which the simulator may import too; kept here for the client's callers. */
export { groupBy } from '../model/collections';
