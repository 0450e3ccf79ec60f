import { newPhotoId, originalKey, parseRenditionKey, renditionKey } from './photo-files';

describe('photo files', () => {
  it('draws ids of the photo form, each new', () => {
    const ids = Array.from({ length: 100 }, newPhotoId);
    for (const id of ids) expect(id).toMatch(/^pho_[0-9A-Za-z_-]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps an upload apart from the renditions, which alone are served', () => {
    const id = newPhotoId();
    expect(originalKey(id)).toBe(`originals/${id}`);
    expect(parseRenditionKey(originalKey(id))).toBeUndefined();
  });

  it('names a rendition by its bytes: the same bytes the same key, other bytes another', () => {
    const id = newPhotoId();
    const key = renditionKey(id, 'small', Buffer.from('pixels'), 'jpg');
    expect(key).toMatch(new RegExp(`^renditions/${id}/small-[0-9a-f]{32}\\.jpg$`));
    expect(renditionKey(id, 'small', Buffer.from('pixels'), 'jpg')).toBe(key);
    expect(renditionKey(id, 'small', Buffer.from('other pixels'), 'jpg')).not.toBe(key);
  });

  it('reads back the digest and media type of a rendition’s key', () => {
    const id = newPhotoId();
    const jpeg = renditionKey(id, 'large', Buffer.from('pixels'), 'jpg');
    const webp = renditionKey(id, 'full', Buffer.from('pixels'), 'webp');
    expect(parseRenditionKey(jpeg)).toEqual({ digest: jpeg.slice(-36, -4), contentType: 'image/jpeg' });
    expect(parseRenditionKey(webp)).toEqual({ digest: webp.slice(-37, -5), contentType: 'image/webp' });
  });

  it.each([
    ['another extension', (key: string) => key.replace(/\.jpg$/, '.png')],
    ['another size', (key: string) => key.replace('/small-', '/huge-')],
    ['a path out of the renditions', (key: string) => `../${key}`],
    ['a short digest', (key: string) => key.replace(/-[0-9a-f]{32}\./, '-abc.')],
  ])('knows no rendition key with %s', (_case, change) => {
    const key = renditionKey(newPhotoId(), 'small', Buffer.from('pixels'), 'jpg');
    expect(parseRenditionKey(change(key))).toBeUndefined();
  });
});
