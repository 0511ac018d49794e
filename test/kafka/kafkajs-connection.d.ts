// The kafkajs 2.2.4 class RequestCounter wraps (the package ships no types for its internals).
declare module 'kafkajs/src/network/connection' {
  export default class Connection {}
}
