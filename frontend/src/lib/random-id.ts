/**
 * A random id (32 hex characters). crypto.randomUUID exists only in secure contexts; getRandomValues everywhere, so
 * the wizard also works over plain http on a LAN address (`npm run dev` opened on a phone).
 */
export function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
