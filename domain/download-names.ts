/** File names for downloads (docs/product-spec.md §7). Pure. */

export function shortHash(hash: string): string {
  return hash.slice(0, 8);
}

/** 'png' when the blob is a PNG, else 'jpg'. */
export function extensionFor(blobType: string | undefined | null): 'png' | 'jpg' {
  return blobType === 'image/png' ? 'png' : 'jpg';
}

function safePart(text: string): string {
  // Spaces to underscores (spec); also strip characters no file system accepts.
  return text.replace(/\s/g, '_').replace(/[\\/:*?"<>|]/g, '');
}

/** 'Pixar 3D' + 'abcdef0123…' + PNG blob -> 'Pixar_3D_abcdef01.png'. */
export function imageFileName(styleName: string, imageHash: string, blobType?: string | null): string {
  return `${safePart(styleName)}_${shortHash(imageHash)}.${extensionFor(blobType)}`;
}

/** The status screen's single-image download always uses jpg. */
export function statusImageFileName(styleName: string, imageHash: string): string {
  return `${safePart(styleName)}_${shortHash(imageHash)}.jpg`;
}

/** Zip of one photo's styles: '{brand}_{first 8 of hash}.zip'. */
export function groupZipName(brand: string, imageHash: string): string {
  return `${safePart(brand)}_${shortHash(imageHash)}.zip`;
}

/** Zip of a whole generation: '{brand}_{generationId}.zip'. */
export function generationZipName(brand: string, generationId: string): string {
  return `${safePart(brand)}_${safePart(generationId)}.zip`;
}

/** Unique names inside one zip: a second 'A.png' becomes 'A_2.png'. */
export function dedupeNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)}_${n}${name.slice(dot)}` : `${name}_${n}`;
  });
}
