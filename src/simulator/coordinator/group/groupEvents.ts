/**
 * The coordinator's output for a group at the clock's time: the rebalance events (the timeline's
 * source) and the records it appends to `__consumer_offsets`.
 */
import type { EventTransaction, GroupState, RebalanceEvent, RebalanceEventKind } from '../../../model/types';
import type { VirtualClock } from '../../common/clock';
import { NO_RECORD_WRITER, type CoordinatorRecord, type CoordinatorRecordWriter } from './coordinatorRecords';
import type { EventLog } from '../../common/eventLog';
import type { GroupMemberIdentity } from './group';

export interface GroupEventDetails {
  member?: GroupMemberIdentity;
  cause?: string;
  stateBefore?: GroupState;
  stateAfter?: GroupState;
  assignments?: RebalanceEvent['assignments'];
  transaction?: EventTransaction;
}

/** The group fields an event records: its id, generation and state at the time. */
export interface EventSubject {
  readonly groupId: string;
  readonly generationId: number;
  readonly state: GroupState;
}

export class GroupEvents {
  constructor(
    private readonly clock: VirtualClock,
    private readonly events: EventLog,
    /** Where the records go; nowhere for managers tested without a log. */
    readonly records: CoordinatorRecordWriter = NO_RECORD_WRITER,
  ) {}

  /** Appends one coordinator operation's records to the group's `__consumer_offsets` partition. */
  write(groupId: string, records: readonly CoordinatorRecord[], producerId?: number): void {
    if (records.length > 0) {
      this.records.write(groupId, records, producerId);
    }
  }

  /** An event built elsewhere (the KIP-848 engine derives its own from the records it writes). */
  append(event: RebalanceEvent): void {
    this.events.emit(event);
  }

  emit(group: EventSubject, kind: RebalanceEventKind, details: GroupEventDetails): void {
    const event: RebalanceEvent = { groupId: group.groupId, time: this.clock.now, kind, generation: group.generationId };
    event.stateBefore = details.stateBefore ?? group.state;
    event.stateAfter = details.stateAfter ?? group.state;
    if (details.member) {
      event.memberId = details.member.memberId;
      event.groupInstanceId = details.member.groupInstanceId;
      event.clientId = details.member.clientId;
    }
    if (details.cause !== undefined) {
      event.cause = details.cause;
    }
    if (details.assignments) {
      event.assignments = details.assignments;
    }
    if (details.transaction) {
      event.transaction = details.transaction;
    }
    this.events.emit(event);
  }
}
