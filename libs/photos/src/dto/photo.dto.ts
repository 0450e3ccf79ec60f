import { PhotoUrlsDto } from '@app/pets';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

const PHOTO_STATUSES = ['processing', 'ready', 'failed'] as const;
export type PhotoStatus = (typeof PHOTO_STATUSES)[number];

@ApiSchema({ name: 'Photo' })
export class PhotoDto {
  @ApiProperty({ example: 'pho_3kTz9QwYb1nV0xLr5sPa2mHd' })
  id: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  petId: number;

  @ApiProperty({
    enum: PHOTO_STATUSES,
    enumName: 'PhotoStatus',
    description: '`processing` until the renditions are written, then `ready`, or `failed` (see `error`).',
    example: 'processing',
  })
  status: PhotoStatus;

  @ApiProperty({ type: 'integer', description: 'Place among the pet’s photos; 0 is the primary photo.', example: 0 })
  position: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Of the `full` rendition, once ready.', example: 2048 })
  width?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Of the `full` rendition, once ready.', example: 1536 })
  height?: number;

  @ApiPropertyOptional({ type: PhotoUrlsDto, description: 'Once ready.' })
  urls?: PhotoUrlsDto;

  @ApiPropertyOptional({ description: 'Why processing failed.', example: 'the image does not decode' })
  error?: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updatedAt: string;
}

export class UpdatePhotoDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The new place; the other photos shift. 0 is the primary photo; past the end moves it to the end.',
    example: 0,
  })
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  position: number;
}
