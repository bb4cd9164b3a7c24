import {
  detectFileType,
  FALLBACK_TYPE,
  MAX_FILE_BYTES,
  SNIFF_BYTES,
  sniffImageType,
  validateFiles,
} from '../../domain/upload-rules';
import { photo } from '../fixtures/photos';

const bytes = (...b: number[]) => new Uint8Array(b);
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13);

describe('sniffImageType', () => {
  it('detects JPEG and PNG from their signatures', () => {
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(PNG)).toBe('image/png');
  });

  it('recognises other formats so they are rejected even when renamed', () => {
    expect(sniffImageType(ascii('GIF89a....'))).toBe('image/gif');
    expect(sniffImageType(ascii('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(ascii('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffImageType(ascii('\0\0\0\x18ftypheic'))).toBe('image/heic');
  });

  it('needs the whole signature', () => {
    expect(sniffImageType(bytes(0xff, 0xd8))).toBeNull();
    expect(sniffImageType(PNG.subarray(0, 7))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
    expect(sniffImageType(ascii('hello world'))).toBeNull();
  });

  it('reads real photos', () => {
    const head = (f: string) => new Uint8Array(photo(f).subarray(0, SNIFF_BYTES));
    expect(sniffImageType(head('rocket.jpg'))).toBe('image/jpeg');
    expect(sniffImageType(head('chelsea.png'))).toBe('image/png');
  });
});

describe('detectFileType', () => {
  it('prefers the bytes, then the browser type, then application/octet-stream', () => {
    expect(detectFileType(PNG, 'image/jpeg')).toBe('image/png');
    expect(detectFileType(ascii('GIF89a'), 'image/jpeg')).toBe('image/gif');
    expect(detectFileType(ascii('????'), 'image/jpeg')).toBe('image/jpeg');
    expect(detectFileType(ascii('????'), '')).toBe(FALLBACK_TYPE);
    expect(detectFileType(ascii('????'))).toBe('application/octet-stream');
  });
});

describe('validateFiles', () => {
  const ok = (size = 1000) => ({ type: 'image/jpeg', size });

  it('accepts JPEG and PNG under 10 MB', () => {
    const r = validateFiles(0, [ok(), { type: 'image/png', size: MAX_FILE_BYTES - 1 }]);
    expect(r.accepted).toHaveLength(2);
    expect(r.message).toBeNull();
  });

  it('rejects other types and files of 10 MB or more', () => {
    expect(validateFiles(0, [{ type: 'image/gif', size: 10 }]).message).toBe('Only JPG/PNG files are allowed');
    expect(validateFiles(0, [{ type: 'image/png', size: MAX_FILE_BYTES }]).message).toBe(
      'File size must be less than 10MB',
    );
  });

  it('shows only the first invalid file message and still adds the valid files', () => {
    const files = [ok(), { type: 'image/png', size: MAX_FILE_BYTES + 1 }, ok(), { type: 'application/pdf', size: 5 }];
    const r = validateFiles(0, files);
    expect(r.accepted).toEqual([files[0], files[2]]);
    expect(r.message).toBe('File size must be less than 10MB');
  });

  it('stops at 50 files, drops the rest silently and shows the limit message', () => {
    const many = Array.from({ length: 60 }, () => ok());
    const r = validateFiles(0, many);
    expect(r.accepted).toHaveLength(50);
    expect(r.message).toBe('Maximum 50 files allowed');

    const more = validateFiles(48, [ok(), ok(), ok()]);
    expect(more.accepted).toHaveLength(2);
    expect(more.message).toBe('Maximum 50 files allowed');

    const full = validateFiles(50, [ok()]);
    expect(full.accepted).toHaveLength(0);
    expect(full.message).toBe('Maximum 50 files allowed');
  });

  it('shows the limit message when the count reaches exactly 50', () => {
    expect(validateFiles(49, [ok()]).message).toBe('Maximum 50 files allowed');
    expect(validateFiles(48, [ok()]).message).toBeNull();
  });
});
