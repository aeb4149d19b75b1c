import type { components } from './openapi.gen.js';

/** The API's shapes the workbench reads, by their OpenAPI component names. */
type Schemas = components['schemas'];

export type Role = Schemas['Principal']['role'];
export type Principal = Schemas['Principal'];
export type BoardObject = Schemas['BoardObject'];
export type ObjectStatus = Schemas['CanonObject']['status'];
export type ObjectType = Schemas['CanonObject']['object_type'];
export type ProposalRecord = Schemas['ProposalRecord'];
export type ProposalView = Schemas['ProposalView'];
export type NoteSide = Schemas['NoteSide'];
export type NoteContent = Schemas['NoteContent'];
export type CheckResult = Schemas['CheckResult'];
export type ComparisonChecks = Schemas['ComparisonChecks'];
export type ArtifactStatus = Schemas['ArtifactStatus'];
export type DependencyState = Schemas['DependencyState'];
export type SourceRef = Schemas['SourceRef'];
export type NoteVersion = Schemas['NoteVersion'];
export type Provenance = Schemas['Provenance'];
export type NoteGraph = Schemas['NoteGraph'];
export type Receipt = Schemas['Receipt'];
export type ProposalOutcome = Schemas['ProposalOutcome'];
export type ArtifactManifest = Schemas['ArtifactManifest'];
export type RelaySessionSummary = Schemas['RelaySessionSummary'];
export type RelaySession = Schemas['RelaySession'];
export type RelaySessionView = Schemas['RelaySessionView'];
export type RelayWindow = Schemas['RelayWindow'];
export type RelayWindowQuality = Schemas['RelayWindowQuality'];
export type RelayChainReport = Schemas['RelayChainReport'];
export type ValidateEnvelope = Schemas['ValidateEnvelope'];

/** Who the signed-in token stands for (`GET …/whoami`). */
export interface Me {
  readonly project: string;
  readonly principal: string;
  readonly role: Role;
}
