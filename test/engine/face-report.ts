/**
 * How every style keeps the faces of the face cases (the three portraits, a dark-skinned one made from the
 * astronaut, and the group of 8, 5 and 3 % faces): each face's likeness (engine/likeness.ts) and skin tone
 * (engine/skin-tone.ts) in the paid render (renderStyle, face keeping included), and what face keeping cost.
 * Used by test/engine/face-keep.test.ts (in its own process, sharing the file's analysis threads) and by the bench.
 *
 * `npx tsx test/engine/face-report.ts --print [--size 2048] [--cases a,b] [--styles a,b]`: the report as one JSON line.
 */
import { STYLE_IDS } from '../../domain/styles';
import {
  analyzePhoto,
  applyStyle,
  closeAnalysisThread,
  closeStylePool,
  decodeInput,
  encodeOutput,
  keepStyledFaces,
} from '../../engine';
import type { Analysis } from '../../engine/analysis/types';
import { likeness } from '../../engine/likeness';
import { skinTones } from '../../engine/skin-tone';
import { darkSkin, group } from './hard-cases';
import { photo } from './helpers';

export const FACE_CASES = ['astronaut', 'grace_hopper', 'camera', 'dark', 'group'] as const;
export type FaceCase = (typeof FACE_CASES)[number];

export async function faceCase(name: FaceCase): Promise<Buffer> {
  if (name === 'dark') return darkSkin(photo('astronaut.png'));
  if (name === 'group') return group();
  return photo(name === 'grace_hopper' ? 'grace_hopper.jpg' : `${name}.png`);
}

export interface FaceRow {
  style: string;
  case: FaceCase;
  size: number;
  /** Per face, largest first: likeness of the finished PNG, skin tone (ΔL*, Δa*b*, grey render), kept's step. */
  similarity: number[];
  skin: { dL: number; dAB: number; grey: boolean; photoL: number }[];
  toned: boolean[];
  steps: number[];
  /** Likeness of the style's render before face keeping (the bench's; empty when not asked for). */
  styledSimilarity: number[];
  /** Wall time of the style and of face keeping, ms. */
  styleMs: number;
  keepMs: number;
}

/** What a report measures beyond the finished render: `styled`, the likeness before face keeping too (the bench). */
export interface ReportOptions {
  styled?: boolean;
}

/**
 * One style on one case at `size` px (a smaller photo enlarged, as a paid render). `analysis`: the photo's, shared by
 * a case's styles as the engine server's cache shares it across an order.
 */
export async function faceRow(
  style: string,
  name: FaceCase,
  bytes: Buffer,
  size: number,
  analysis: Analysis,
  { styled: withStyled = true }: ReportOptions = {},
): Promise<FaceRow> {
  const img = await decodeInput(bytes, { maxSize: size, enlarge: true });
  let t = performance.now();
  const styled = applyStyle(img, style, analysis);
  const styleMs = performance.now() - t;
  t = performance.now();
  const kept = await keepStyledFaces(img, style, styled, analysis);
  const keepMs = performance.now() - t;
  const out = { ...styled, data: kept.data };
  const [after, before] = await Promise.all([
    likeness(bytes, await encodeOutput(out, false, false), analysis),
    withStyled ? likeness(bytes, await encodeOutput(styled, false, false), analysis) : { faces: [] },
  ]);
  return {
    style,
    case: name,
    size,
    similarity: after.faces.map((f) => f.similarity),
    skin: skinTones(img, out, analysis).map((s) => ({ dL: s.dL, dAB: s.dAB, grey: s.grey, photoL: s.photo[0] })),
    toned: kept.faces.map((f) => f.toned),
    steps: kept.faces.map((f) => f.step),
    styledSimilarity: before.faces.map((f) => f.similarity),
    styleMs: Math.round(styleMs),
    keepMs: Math.round(keepMs),
  };
}

export async function faceReport(
  styles: readonly string[] = STYLE_IDS,
  cases: readonly FaceCase[] = FACE_CASES,
  size = 2048,
  opts: ReportOptions = {},
): Promise<FaceRow[]> {
  const rows: FaceRow[] = [];
  for (const name of cases) {
    const bytes = await faceCase(name);
    const analysis = await analyzePhoto(bytes);
    for (const style of styles) rows.push(await faceRow(style, name, bytes, size, analysis, opts));
  }
  return rows;
}

if (require.main === module && process.argv.includes('--print')) {
  const arg = (k: string) => {
    const i = process.argv.indexOf(k);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const styles = arg('--styles')?.split(',') ?? STYLE_IDS;
  const cases = (arg('--cases')?.split(',') as FaceCase[] | undefined) ?? FACE_CASES;
  faceReport(styles, cases, Number(arg('--size') ?? 2048))
    .then(async (rows) => {
      console.log(JSON.stringify(rows));
      await Promise.all([closeAnalysisThread(), closeStylePool()]);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
