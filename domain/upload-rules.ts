/**
 * Upload validation rules (docs/product-spec.md §5, §9). Pure: the browser feeds it file metadata and the
 * first SNIFF_BYTES bytes of each file; the server may reuse the constants and the sniffer.
 */

export const MAX_FILES = 50;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Size of the leading sample used to detect the real file type. */
export const SNIFF_BYTES = 4100;
/** What the service accepts; the browser, the upload contract, the moderation task and the engine all check it. */
export const ACCEPTED_TYPES = ['image/jpeg', 'image/png'] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];
export const isAcceptedType = (value: unknown): value is AcceptedType =>
  typeof value === 'string' && (ACCEPTED_TYPES as readonly string[]).includes(value);
export const FALLBACK_TYPE = 'application/octet-stream';

export const MESSAGES = {
  type: 'Only JPG/PNG files are allowed',
  size: 'File size must be less than 10MB',
  max: `Maximum ${MAX_FILES} files allowed`,
} as const;

function startsWith(bytes: Uint8Array, signature: ReadonlyArray<number>, offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

/**
 * Detects the mime type from the leading bytes. JPEG and PNG are the accepted formats; a few other
 * common formats are recognised too, so that e.g. a GIF renamed to .jpg is still rejected.
 * Returns null when the bytes match nothing known.
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  if (startsWith(bytes, [0x42, 0x4d]) && bytes.length >= 14) return 'image/bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
  }
  if (ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

/**
 * The file type the product records for an image (docs/product-spec.md §3): detected from the bytes, else the
 * browser-reported type, else application/octet-stream.
 */
export function detectFileType(bytes: Uint8Array, reportedType?: string | null): string {
  return sniffImageType(bytes) ?? (reportedType || FALLBACK_TYPE);
}

export interface FileCandidate {
  /** Detected type (see detectFileType). */
  type: string;
  size: number;
}

export interface ValidationResult<T> {
  accepted: T[];
  /** The message to show, or null: the first invalid file's message, else the limit message. */
  message: string | null;
}

/** The reason a single file is rejected, or null when it is acceptable. */
export function fileProblem(candidate: FileCandidate): string | null {
  if (!isAcceptedType(candidate.type)) return MESSAGES.type;
  if (!(candidate.size < MAX_FILE_BYTES)) return MESSAGES.size;
  return null;
}

/**
 * Applies the selection rules to newly picked files given how many are already selected:
 * valid files are added up to MAX_FILES, files beyond the limit are dropped silently,
 * only the first invalid file's message is reported, and 'Maximum 50 files allowed' is reported
 * when the count reaches the limit (if no invalid file was seen).
 */
export function validateFiles<T extends FileCandidate>(
  existingCount: number,
  candidates: ReadonlyArray<T>,
): ValidationResult<T> {
  const accepted: T[] = [];
  let firstProblem: string | null = null;
  for (const candidate of candidates) {
    if (existingCount + accepted.length >= MAX_FILES) break;
    const problem = fileProblem(candidate);
    if (problem) {
      firstProblem ??= problem;
      continue;
    }
    accepted.push(candidate);
  }
  const reachedLimit = existingCount + accepted.length >= MAX_FILES;
  return { accepted, message: firstProblem ?? (reachedLimit ? MESSAGES.max : null) };
}
