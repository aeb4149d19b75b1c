/** Types of check.js (plain JavaScript, shared by the bench and its tests). */
export interface FamilyResult {
  id: string;
  family: 'cascade' | 'dispute' | 'hedged' | 'tool' | 'approval';
  // Each family's truth and canonry answer have their own shape (see evaluate.js).
  truth: any;
  canonry: any;
  errors: string[];
}
export function replayFamilies(ids: string[], db?: string): Promise<FamilyResult[]>;
