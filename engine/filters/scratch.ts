/**
 * Scratch planes kept between calls, one per named use. A style allocates 20-35 MB of float planes at 1024 px; each
 * fresh one is zeroed memory outside V8's heap, and that churn makes V8 collect its whole heap (a model server's
 * heap, models included) every couple of renders, on helper threads whose CPU time the render pays. A filter's
 * intermediate that never leaves it (a blur's row pass, the domain transform's weights) reuses its slot instead.
 *
 * A slot's contents are left from its last use: the caller writes every value before reading it. Slots are per
 * thread (per module instance) and never shared by two calls that are live at once: each name belongs to one filter,
 * and no filter calls itself while it holds its slot.
 */

export type ScratchSlot = 'blur' | 'weightsH' | 'weightsV' | 'dog';

/** Larger planes (full-size passes of large outputs) are allocated as needed, not kept: memory stays bounded. */
const KEEP_MAX = 1 << 20;

const slots = new Map<ScratchSlot, Float32Array>();

/** A plane of n floats for `slot`, with stale contents; a fresh one when n is over KEEP_MAX. */
export function scratchPlane(slot: ScratchSlot, n: number): Float32Array {
  if (n > KEEP_MAX) return new Float32Array(n);
  let p = slots.get(slot);
  if (!p || p.length < n) {
    p = new Float32Array(n);
    slots.set(slot, p);
  }
  return p.length === n ? p : p.subarray(0, n);
}
