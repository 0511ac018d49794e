import type { AssignorMember } from './types';

/**
 * Java String.compareTo: compares UTF-16 code units, which is exactly what JS `<` does on strings.
 * Kept as a named function so the intent (Java order, not locale order) is visible at call sites.
 */
export function compareJavaStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * AbstractPartitionAssignor.MemberInfo.compareTo: static members (with group.instance.id) first, ordered by
 * instance id; dynamic members after them, ordered by member id.
 */
export function compareMembersStaticFirst(a: AssignorMember, b: AssignorMember): number {
  // `!= null`: a member id read from JSON may carry an explicit null for "no instance id".
  const aStatic = a.groupInstanceId != null;
  const bStatic = b.groupInstanceId != null;
  if (aStatic && bStatic) {
    return compareJavaStrings(a.groupInstanceId as string, b.groupInstanceId as string);
  }
  if (aStatic) {
    return -1;
  }
  if (bStatic) {
    return 1;
  }
  return compareJavaStrings(a.memberId, b.memberId);
}
