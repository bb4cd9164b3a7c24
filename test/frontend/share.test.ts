import {
  APP_SHARE_TEXT,
  COPIED_MESSAGES,
  facebookShareUrl,
  galleryLink,
  galleryShareText,
  type ShareEnv,
  shareLink,
  styleLink,
  styleShareText,
  twitterShareUrl,
} from '../../frontend/src/lib/share';

describe('share texts and links', () => {
  it('fills the brand and style into the spec texts', () => {
    expect(galleryShareText('ToonZap')).toBe(
      "Here's my photo in a bunch of cartoon styles from ToonZap! Which is your favorite?",
    );
    expect(styleShareText('Pixar 3D')).toBe("Here's my photo in the Pixar 3D style ...");
    expect(APP_SHARE_TEXT).toBe('Check out this cool AI photo generator!');
  });

  it('builds gallery and style links from the origin', () => {
    expect(galleryLink('https://toonzap.example', 'abc')).toBe('https://toonzap.example/image/abc');
    expect(styleLink('https://toonzap.example', 'abc', 'pop-art')).toBe('https://toonzap.example/image/abc/pop-art');
  });

  it('builds Twitter and Facebook share URLs with encoded parameters', () => {
    expect(twitterShareUrl("Here's it & more", 'https://x.example/image/a?b=1')).toBe(
      "https://twitter.com/intent/tweet?text=Here's%20it%20%26%20more&url=https%3A%2F%2Fx.example%2Fimage%2Fa%3Fb%3D1",
    );
    expect(facebookShareUrl('https://x.example/image/a')).toBe(
      'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fx.example%2Fimage%2Fa',
    );
  });
});

describe('shareLink', () => {
  const data = { text: 'Look', url: 'https://x.example/image/a' };

  it('uses native sharing when available', async () => {
    const env: ShareEnv = { share: jest.fn(async () => {}), writeClipboard: jest.fn(async () => {}), alert: jest.fn() };
    await shareLink(env, data, COPIED_MESSAGES.style);
    expect(env.share).toHaveBeenCalledWith(data);
    expect(env.writeClipboard).not.toHaveBeenCalled();
    expect(env.alert).not.toHaveBeenCalled();
  });

  it('falls back to the clipboard with the right alert', async () => {
    const env: ShareEnv = { writeClipboard: jest.fn(async () => {}), alert: jest.fn() };
    await shareLink(env, data, COPIED_MESSAGES.gallery);
    expect(env.writeClipboard).toHaveBeenCalledWith('Look https://x.example/image/a');
    expect(env.alert).toHaveBeenCalledWith('Gallery share link copied to clipboard!');
    await shareLink(env, data, COPIED_MESSAGES.style);
    expect(env.alert).toHaveBeenLastCalledWith('Share link copied to clipboard!');
  });

  it('ignores a cancelled share or a clipboard failure silently', async () => {
    const cancelled: ShareEnv = {
      share: jest.fn(async () => {
        throw Object.assign(new Error('cancel'), { name: 'AbortError' });
      }),
      alert: jest.fn(),
    };
    await expect(shareLink(cancelled, data, COPIED_MESSAGES.style)).resolves.toBeUndefined();
    expect(cancelled.alert).not.toHaveBeenCalled();

    const denied: ShareEnv = {
      writeClipboard: jest.fn(async () => {
        throw new Error('denied');
      }),
      alert: jest.fn(),
    };
    await expect(shareLink(denied, data, COPIED_MESSAGES.style)).resolves.toBeUndefined();
    expect(denied.alert).not.toHaveBeenCalled();
  });
});
