/** SHA-256 of a file's contents as lower-case hex (the image_hash). */
export async function sha256Hex(data: BufferSource): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data);
  return toHex(new Uint8Array(digest));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Hex (a SHA-256 image hash) to base64, the form storage checksums take (x-amz-checksum-sha256). */
export function hexToBase64(hex: string): string {
  let binary = '';
  for (let i = 0; i + 1 < hex.length; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary);
}
