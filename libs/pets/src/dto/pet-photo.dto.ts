import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Where a hosted photo's renditions are served: absolute URLs that need no key. */
@ApiSchema({ name: 'PhotoUrls' })
export class PhotoUrlsDto {
  @ApiProperty({
    format: 'uri',
    description: '100 px wide.',
    example: 'http://localhost:3000/media/renditions/pho_x/small-1f2e.jpg',
  })
  small: string;

  @ApiProperty({
    format: 'uri',
    description: '300 px wide.',
    example: 'http://localhost:3000/media/renditions/pho_x/medium-3c4d.jpg',
  })
  medium: string;

  @ApiProperty({
    format: 'uri',
    description: '600 px wide.',
    example: 'http://localhost:3000/media/renditions/pho_x/large-5e6f.jpg',
  })
  large: string;

  @ApiProperty({
    format: 'uri',
    description: 'Its longest side at most 2048 px.',
    example: 'http://localhost:3000/media/renditions/pho_x/full-7a8b.jpg',
  })
  full: string;
}

/** A ready photo as the Pet carries it: the service hosts it (unlike `photoUrls`). */
@ApiSchema({ name: 'PetPhoto' })
export class PetPhotoDto {
  @ApiProperty({ example: 'pho_3kTz9QwYb1nV0xLr5sPa2mHd' })
  id: string;

  @ApiProperty({ type: 'integer', description: 'Of the `full` rendition, in pixels.', example: 2048 })
  width: number;

  @ApiProperty({ type: 'integer', description: 'Of the `full` rendition, in pixels.', example: 1536 })
  height: number;

  @ApiProperty({ type: PhotoUrlsDto })
  urls: PhotoUrlsDto;
}

/** The storage key of each rendition of a photo, by size: what rows and events keep of it. */
export type RenditionKeys = Record<keyof PhotoUrlsDto, string>;

/**
 * A ready photo as the pet's row and its events keep it: its renditions by their storage keys, never by their
 * URLs, which follow the media's public base when the pet is read (`PetPhotoUrls`).
 */
export interface StoredPetPhoto extends Omit<PetPhotoDto, 'urls'> {
  renditions: RenditionKeys;
}
