/** Share texts and links (docs/product-spec.md §7, §9). Pure. */

export function galleryShareText(brand: string): string {
  return `Here's my photo in a bunch of cartoon styles from ${brand}! Which is your favorite?`;
}

export function styleShareText(styleName: string): string {
  return `Here's my photo in the ${styleName} style ...`;
}

export const APP_SHARE_TEXT = 'Check out this cool AI photo generator!';

/**
 * Share links name the photo's share id in its order (GeneratedImage.shareId), never its hash: a link opens that
 * order's images of that photo and nothing else.
 */
export function galleryLink(origin: string, shareId: string): string {
  return `${origin}/image/${encodeURIComponent(shareId)}`;
}

export function styleLink(origin: string, shareId: string, styleId: string): string {
  return `${origin}/image/${encodeURIComponent(shareId)}/${encodeURIComponent(styleId)}`;
}

export function twitterShareUrl(text: string, url: string): string {
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`;
}

export function facebookShareUrl(url: string): string {
  return `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`;
}

export const COPIED_MESSAGES = {
  gallery: 'Gallery share link copied to clipboard!',
  style: 'Share link copied to clipboard!',
} as const;

export interface ShareEnv {
  share?: (data: { title?: string; text?: string; url?: string }) => Promise<void>;
  writeClipboard?: (text: string) => Promise<void>;
  alert: (message: string) => void;
}

/**
 * Native share sheet when the device has one; otherwise copies 'text url' to the clipboard and
 * confirms with an alert. Cancelling or any failure is ignored silently.
 */
export async function shareLink(
  env: ShareEnv,
  data: { title?: string; text: string; url: string },
  copiedMessage: string,
): Promise<void> {
  try {
    if (env.share) {
      await env.share(data);
      return;
    }
    if (env.writeClipboard) {
      await env.writeClipboard(`${data.text} ${data.url}`);
      env.alert(copiedMessage);
    }
  } catch {
    // share cancelled or not allowed: ignore
  }
}

/** The browser's share environment. */
export function browserShareEnv(): ShareEnv {
  const nav = typeof navigator !== 'undefined' ? navigator : undefined;
  return {
    share: nav && typeof nav.share === 'function' ? (d) => nav.share(d) : undefined,
    writeClipboard: nav?.clipboard ? (t) => nav.clipboard.writeText(t) : undefined,
    alert: (m) => window.alert(m),
  };
}
