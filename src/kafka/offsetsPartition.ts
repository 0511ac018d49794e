// The group → __consumer_offsets partition mapping lives in the protocol layer; this path stays for the
// tools and tests that name it (see the design notes' contracts).
export { javaStringHashCode, offsetsPartitionFor } from '../protocol/offsetsPartition';
