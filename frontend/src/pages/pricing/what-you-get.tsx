import { FileImage, Palette, Scale } from 'lucide-react';
import { MIN_SHORT_SIDE, PAID_LONG_SIDE } from '../../../../domain/image-format';
import { useAvailableStyles } from '../../lib/use-query';

const OUTPUTS = [
  {
    icon: Palette,
    title: 'Stylized AI artwork',
    text: 'Your photo in each cartoon style you pick; styles marked AI-generated are redrawn by a generative AI model.',
  },
  {
    icon: FileImage,
    title: `${PAID_LONG_SIDE} px images`,
    text: `Every paid image is ${PAID_LONG_SIDE} px on its long side, in every style, delivered as a PNG file, ready to print or post. Photos must be at least ${MIN_SHORT_SIDE} px on their short side.`,
  },
  { icon: Scale, title: 'Usage rights', text: 'Use your images as set out in our Terms of Service.' },
];

/** What a paid image is: its style, its size and format, the rights that come with it. */
export function WhatYouGet() {
  return (
    <>
      <h2 className="mt-14 text-2xl font-bold tracking-tight">What you get</h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {OUTPUTS.map((o) => (
          <li key={o.title} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
            <o.icon aria-hidden="true" className="size-6 text-primary" />
            <h3 className="mt-3 font-semibold">{o.title}</h3>
            <p className="mt-1 text-sm text-muted-foreground">{o.text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The styles of this deployment, each marked when a generative AI model draws it (read after load: it is per environment). */
export function StyleList() {
  const styles = useAvailableStyles();
  if (!styles?.length) return null;
  return (
    <>
      <h2 className="mt-14 text-2xl font-bold tracking-tight">Styles</h2>
      <p className="mt-2 text-muted-foreground">Every style costs the same.</p>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {styles.map((s) => (
          <li
            key={s.id}
            className="flex flex-wrap items-center gap-2 rounded-xl border border-border bg-card px-4 py-3 text-sm font-medium shadow-sm"
          >
            {s.name}
            {s.aiGenerated && (
              <span className="rounded-full bg-primary/10 px-2 py-0.5 text-xs font-semibold text-primary">
                AI-generated
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
