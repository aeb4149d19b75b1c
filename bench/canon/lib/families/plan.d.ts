/** Types of plan.js (plain JavaScript, shared by the bench and its tests). */
export interface FamilyEvent {
  id: string;
  actor: string;
  role: string;
  speaker: 'user' | 'assistant' | 'agent' | 'tool';
  kind: 'say' | 'note' | 'artifact' | 'dispute' | 'resolve' | 'restore' | 'approve';
  text: string;
  beat: string;
  object_id?: string;
  intent?: 'create' | 'update' | 'supersede';
  depends_on?: string[];
  [field: string]: unknown;
}
export interface FamilyScenario {
  id: string;
  family: 'cascade' | 'dispute' | 'hedged' | 'tool' | 'approval';
  seed: number;
  project: string;
  events: FamilyEvent[];
  // Each family's truth has its own shape (see the generators); the tests read the cascade's.
  truth: any;
  question: string;
}
export const FAMILY_SEED: number;
export function generateFamilies(): FamilyScenario[];
