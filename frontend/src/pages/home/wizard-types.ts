/** Shared wizard types (kept free of runtime code so lazy step chunks can import them cheaply). */

export type WizardStep = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface SelectedFile {
  id: string;
  file: File;
  /** Detected mime type (bytes, else browser type, else application/octet-stream). */
  type: string;
  size: number;
  /** Object URL for the thumbnail preview; revoked when the file is removed. */
  previewUrl: string;
}

/** Moderation outcome of the style step, kept by the wizard so going back does not rescan. */
export interface ModerationOutcome {
  /** Joined hashes the outcome belongs to. */
  key: string;
  allowed: string[];
}
