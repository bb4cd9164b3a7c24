/**
 * Distance (in periods) from (x, y) to the nearest dot centre of a halftone screen at 45 degrees with
 * `inv` = 1 / period: 0 at a dot's centre, about 0.707 at a cell's corner. Comic and pop art share it.
 */
export function halftoneDistance(x: number, y: number, inv: number): number {
  const c45 = Math.SQRT1_2;
  const u = (x * c45 + y * c45) * inv;
  const v = (x * c45 - y * c45) * inv;
  const du = u - Math.round(u);
  const dv = v - Math.round(v);
  return Math.sqrt(du * du + dv * dv);
}
