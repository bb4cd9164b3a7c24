/**
 * Which Rekognition moderation labels the Terms forbid (no nudity, NSFW, violence, disturbing or hateful content).
 * Names cover taxonomy v7 and the older v6 top-level categories, so a model version change cannot open a gap.
 */
export const FORBIDDEN_CATEGORIES = [
  'Explicit',
  'Explicit Nudity',
  'Non-Explicit Nudity of Intimate parts and Kissing',
  'Non-Explicit Nudity',
  'Violence',
  'Graphic Violence',
  'Graphic Violence Or Gore',
  'Visually Disturbing',
  'Hate Symbols',
] as const;

export interface ModerationLabel {
  Name?: string;
  ParentName?: string;
  Confidence?: number;
}

export interface PolicyVerdict {
  allowed: boolean;
  /** Labels that broke the policy, with confidence, for the operator. */
  reasons: string[];
}

export function judgeLabels(labels: readonly ModerationLabel[], minConfidence: number): PolicyVerdict {
  const forbidden = new Set<string>(FORBIDDEN_CATEGORIES);
  const reasons: string[] = [];
  for (const label of labels) {
    const confidence = label.Confidence ?? 0;
    if (confidence < minConfidence) continue;
    const hit = [label.Name, label.ParentName].find((n) => n !== undefined && forbidden.has(n));
    if (hit) reasons.push(`${label.Name}${label.ParentName ? ` (${label.ParentName})` : ''}: ${confidence.toFixed(1)}%`);
  }
  return { allowed: reasons.length === 0, reasons };
}
