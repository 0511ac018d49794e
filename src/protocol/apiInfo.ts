import type { VersionRange } from './versionRange';

/** One Kafka API: its key, its name without Request/Response, and its versions. */
export interface ApiInfo {
  readonly apiKey: number;
  readonly name: string;
  readonly validVersions: VersionRange;
  readonly flexibleVersions: VersionRange | null;
  /** Kafka marks the newest version unstable: brokers accept it only with unstable.api.versions.enable. */
  readonly latestVersionUnstable: boolean;
}
