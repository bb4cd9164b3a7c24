/** Shared wizard types (kept free of runtime code so lazy step chunks can import them cheaply). */

export type WizardStep = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface SelectedFile {
  id: string;
  /** File name as picked. */
  name: string;
  /** Identity of the picked file (name, size, modified), so the same file is not added twice. */
  key: string;
  /**
   * The picked file; null for an uploaded photo restored after a reload (its bytes are stored under `hash`), and for
   * a picked one whose file is still on its way back from IndexedDB after a reload (picked-files.ts).
   */
  file: File | null;
  /** Detected mime type (bytes, else browser type, else application/octet-stream). */
  type: string;
  size: number;
  /** Thumbnail: an object URL (revoked when the file is removed) or, once uploaded, a small data: URL; '' while awaiting its file. */
  previewUrl: string;
  /** SHA-256 of the bytes once uploaded. */
  hash?: string;
}

export interface RefusedPhoto {
  hash: string;
  /** Short reason in words ("looks like it may contain nudity"). */
  reason: string;
}

/** Moderation outcome of the style step, kept by the wizard so going back does not rescan. */
export interface ModerationOutcome {
  /** Joined hashes the outcome belongs to. */
  key: string;
  allowed: string[];
  refused: RefusedPhoto[];
}
