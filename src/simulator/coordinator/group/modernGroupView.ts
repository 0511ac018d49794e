/**
 * What a modern group (KIP-848 consumer, KIP-932 share, KIP-1071 streams) shows the coordinator's managers of its engine's
 * group, read live by id: its state (Dead once the engine dropped it), its group epoch in the place of a
 * classic generation, and its members; the committed offsets are kept here, as for any group.
 */
import type { GroupState } from '../../../model/types';
import type { GroupMemberIdentity } from './group';
import { GroupOffsets } from './groupOffsets';

/** The parts of an engine's group the view reads. */
export interface EngineGroup {
  readonly state: GroupState;
  readonly groupEpoch: number;
  /** A share member has no instance id. */
  readonly members: ReadonlyMap<string, { readonly memberId: string; readonly instanceId?: string | null; readonly clientId: string }>;
}

export abstract class ModernGroupView<G extends EngineGroup> extends GroupOffsets {
  constructor(
    readonly groupId: string,
    /** The engine's group of this id, or undefined once it is deleted. */
    protected readonly current: () => G | undefined,
  ) {
    super();
  }

  get state(): G['state'] {
    return this.current()?.state ?? 'Dead';
  }

  /** The group epoch stands where a classic group's generation does (events, ListGroups). */
  get generationId(): number {
    return this.current()?.groupEpoch ?? 0;
  }

  get members(): ReadonlyMap<string, GroupMemberIdentity> {
    const members = new Map<string, GroupMemberIdentity>();
    for (const member of this.current()?.members.values() ?? []) {
      members.set(member.memberId, { memberId: member.memberId, groupInstanceId: member.instanceId ?? null, clientId: member.clientId });
    }
    return members;
  }
}
