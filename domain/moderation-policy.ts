/**
 * What the Terms forbid (no nudity, NSFW, violence, disturbing or hateful content), decided from Rekognition's
 * moderation taxonomy (model 7: three levels, L1 → L2 → L3). The same rules judge AWS Rekognition's labels and the
 * local stand-in's (local/rekognition/), which maps its model onto the same taxonomy.
 *
 * Decided per label, at the most specific level that draws the line, as AWS recommends (moderate on L1/L2, use L3
 * to let through concepts the policy does not mind):
 * - 'Explicit' (L1) and everything under it: nudity.
 * - 'Non-Explicit Nudity' (L2): nudity, unless every L3 under it is one the policy allows (a bare back, a man's
 *   bare chest: a footballer, a swimmer). 'Obstructed Intimate Parts' (L2): nudity. 'Kissing on the Lips': allowed.
 * - 'Swimwear or Underwear' (L1) is suggestive, not nudity: allowed (a beach photo).
 * - Violence: only graphic violence (L2); a photo with a weapon in it is allowed. 'Visually Disturbing' and
 *   'Hate Symbols' (L1): refused.
 * - Drugs & Tobacco, Alcohol, Rude Gestures, Gambling: allowed.
 * Taxonomy v6 names (top-level 'Explicit Nudity', 'Graphic Violence Or Gore', ...) are covered too, so a model
 * version change cannot open a gap.
 */

import { photoSizeProblem } from './image-format';

export type RefusalCategory = 'nudity' | 'violence' | 'disturbing' | 'hate';

/** Labels (any level) that refuse a photo, with the category they fall under. */
const FORBIDDEN: Record<string, RefusalCategory> = {
  // v7 (L1 and its children) and v6 top level
  Explicit: 'nudity',
  'Explicit Nudity': 'nudity',
  'Explicit Sexual Activity': 'nudity',
  'Sex Toys': 'nudity',
  'Obstructed Intimate Parts': 'nudity',
  'Graphic Violence': 'violence',
  'Graphic Violence Or Gore': 'violence',
  'Physical Violence': 'violence',
  'Weapon Violence': 'violence',
  'Self Injury': 'violence',
  'Self-Harm': 'violence',
  'Visually Disturbing': 'disturbing',
  'Hate Symbols': 'hate',
};

/** An L2 that refuses unless all of its L3 children are allowed ones. */
const NON_EXPLICIT_NUDITY = 'Non-Explicit Nudity';
const ALLOWED_NON_EXPLICIT = new Set(['Bare Back', 'Exposed Male Nipple']);

/** Short reasons for the visitor, in words. */
export const REFUSAL_REASONS: Record<RefusalCategory, string> = {
  nudity: 'looks like it may contain nudity',
  violence: 'looks like it may contain graphic violence',
  disturbing: 'looks like it may contain disturbing content',
  hate: 'looks like it may contain hate symbols',
};

/** Reason shown for a photo that could not be checked at all (not a usable upload). */
export const INVALID_REASON = 'could not be read as a JPG or PNG photo';

export interface ModerationLabel {
  Name?: string;
  ParentName?: string;
  Confidence?: number;
  TaxonomyLevel?: number;
}

export interface PolicyVerdict {
  allowed: boolean;
  /** Labels that broke the policy, with confidence, for the operator. */
  reasons: string[];
  /** What kind of content refused the photo (the first one found), for the visitor; null when allowed. */
  category: RefusalCategory | null;
}

const describe = (label: ModerationLabel, confidence: number) =>
  `${label.Name}${label.ParentName ? ` (${label.ParentName})` : ''}: ${confidence.toFixed(1)}%`;

export function judgeLabels(labels: readonly ModerationLabel[], minConfidence: number): PolicyVerdict {
  const sure = labels.filter((l) => (l.Confidence ?? 0) >= minConfidence);
  const reasons: string[] = [];
  let category: RefusalCategory | null = null;
  const refuse = (label: ModerationLabel, c: RefusalCategory) => {
    reasons.push(describe(label, label.Confidence ?? 0));
    category ??= c;
  };
  for (const label of sure) {
    const name = label.Name ?? '';
    const hit = FORBIDDEN[name] ?? (label.ParentName ? FORBIDDEN[label.ParentName] : undefined);
    if (hit) {
      refuse(label, hit);
    } else if (name === NON_EXPLICIT_NUDITY) {
      const children = sure.filter((l) => l.ParentName === NON_EXPLICIT_NUDITY);
      if (children.length === 0 || children.some((l) => !ALLOWED_NON_EXPLICIT.has(l.Name ?? '')))
        refuse(label, 'nudity');
    }
  }
  return { allowed: reasons.length === 0, reasons, category };
}

/**
 * The visitor-facing reason for a verdict other than 'allowed'. `size`: the photo's pixel size when its header was
 * read; an invalid photo under the minimum size says so (domain/image-format.ts).
 */
export function refusalReason(
  verdict: 'rejected' | 'invalid',
  category: RefusalCategory | null | undefined,
  size: { width?: number; height?: number } = {},
): string {
  if (verdict === 'invalid') return photoSizeProblem(size) ?? INVALID_REASON;
  return category ? REFUSAL_REASONS[category] : 'does not meet our content rules';
}
