import { Endpoint } from '@app/accounts';
import { CurrentPrincipal, Principal } from '@app/core';
import { IdParamPipe, locationHeader, StreamsBody } from '@app/http';
import { admitStreamedBody, Idempotent } from '@app/idempotency';
import { PET_ID_PARAM, PET_NOT_FOUND, PETS_API_TAG } from '@app/pets';
import { Body, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { PhotoDto, UpdatePhotoDto } from './dto/photo.dto';
import { INVALID_IMAGE, NOT_LISTER, PHOTO_NOT_FOUND, PHOTO_TOO_LARGE, TOO_MANY_PHOTOS } from './photos-openapi';
import { PhotosService } from './photos.service';
import { PhotosSettings } from './photos.settings';
import { receiveUpload } from './upload-body';

const PHOTO_ID_PARAM = {
  name: 'photoId',
  description: 'Identifier of the photo.',
  schema: { type: 'string', example: 'pho_3kTz9QwYb1nV0xLr5sPa2mHd' },
} as const;

const IMAGE_FILE = { type: 'string', format: 'binary' } as const;

/** The route of uploadPetPhoto, which reads its body itself (the api app's `streamedBodyRoutes`). */
export const PHOTO_UPLOAD_ROUTE = { method: 'POST', path: /^\/v1\/pets\/[^/]+\/photos\/?$/ };

@ApiTags(PETS_API_TAG.name)
@ApiBearerAuth()
@ApiParam(PET_ID_PARAM)
@Controller('pets/:petId/photos')
export class PhotosController {
  constructor(
    private readonly photos: PhotosService,
    private readonly settings: PhotosSettings,
  ) {}

  @StreamsBody()
  @Idempotent()
  @Endpoint({
    method: 'POST',
    id: 'uploadPetPhoto',
    scope: 'pets:write',
    summary: 'Upload a photo of an animal',
    description:
      'The lister only. A JPEG, PNG or WebP image (recognised by its bytes) of at most 50 megapixels and ' +
      '`PHOTO_MAX_BYTES` (10 MiB by default), as the multipart part `file` or as the body itself with the ' +
      'image’s type. The answer does not wait for processing: a `202` is a promise that the photo becomes ' +
      '`ready` (its renditions written, every metadata block such as the GPS position removed) or `failed`. ' +
      'Follow `Location` to see it. A pet has at most 10 photos.',
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { file: IMAGE_FILE }, required: ['file'] },
          encoding: { file: { contentType: 'image/jpeg, image/png, image/webp' } },
        },
        'image/jpeg': { schema: IMAGE_FILE },
        'image/png': { schema: IMAGE_FILE },
        'image/webp': { schema: IMAGE_FILE },
      },
    },
    success: {
      status: 202,
      description: 'Stored, and queued for processing.',
      type: PhotoDto,
      headers: locationHeader('/v1/pets/1/photos/pho_3kTz9QwYb1nV0xLr5sPa2mHd'),
    },
    errors: [400, INVALID_IMAGE, 401, NOT_LISTER, PET_NOT_FOUND, TOO_MANY_PHOTOS, PHOTO_TOO_LARGE],
  })
  async uploadPetPhoto(
    @Param('petId', IdParamPipe) petId: number,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PhotoDto> {
    const photo = await this.photos.upload(petId, principal.accountId, async (directory) => {
      const received = await receiveUpload(request, directory, this.settings.PHOTO_MAX_BYTES);
      // The image is the body an Idempotency-Key covers: a retry is told from another upload only now.
      await admitStreamedBody(request, received.sha256);
      return received;
    });
    response.setHeader('Location', `/v1/pets/${petId}/photos/${photo.id}`);
    return photo;
  }

  @Endpoint({
    method: 'GET',
    id: 'listPetPhotos',
    scope: 'pets:read',
    publishable: true,
    summary: 'List an animal’s photos',
    description: 'By position. Every key sees the ready photos; the lister sees all of them, whatever their status.',
    success: { status: 200, description: 'The photos, by position.', type: [PhotoDto] },
    errors: [400, 401, PET_NOT_FOUND],
  })
  listPetPhotos(
    @Param('petId', IdParamPipe) petId: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PhotoDto[]> {
    return this.photos.list(petId, principal.accountId);
  }

  @Endpoint({
    method: 'GET',
    path: ':photoId',
    id: 'getPetPhoto',
    scope: 'pets:read',
    publishable: true,
    summary: 'Get a photo of an animal',
    description: 'With its status; a photo not yet ready (or failed) is `404` to anyone but the lister.',
    params: [PHOTO_ID_PARAM],
    success: { status: 200, description: 'The photo.', type: PhotoDto },
    errors: [400, 401, PHOTO_NOT_FOUND],
  })
  getPetPhoto(
    @Param('petId', IdParamPipe) petId: number,
    @Param('photoId') photoId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PhotoDto> {
    return this.photos.get(petId, photoId, principal.accountId);
  }

  @Endpoint({
    method: 'PATCH',
    path: ':photoId',
    id: 'updatePetPhoto',
    scope: 'pets:write',
    summary: 'Move a photo of an animal',
    description:
      'The lister only. Moves the photo to `position`, the others shift; 0 is the primary photo, a position ' +
      'past the end moves it to the end. Moving a ready photo changes the pet (`updatedAt`, ETag, `pet.updated`).',
    params: [PHOTO_ID_PARAM],
    success: { status: 200, description: 'The photo after the move.', type: PhotoDto },
    errors: [400, 401, NOT_LISTER, PHOTO_NOT_FOUND],
  })
  updatePetPhoto(
    @Param('petId', IdParamPipe) petId: number,
    @Param('photoId') photoId: string,
    @Body() body: UpdatePhotoDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PhotoDto> {
    return this.photos.move(petId, photoId, principal.accountId, body.position);
  }

  @Endpoint({
    method: 'DELETE',
    path: ':photoId',
    id: 'deletePetPhoto',
    scope: 'pets:write',
    summary: 'Remove a photo of an animal',
    description: 'The lister only. Its files are removed within a minute.',
    params: [PHOTO_ID_PARAM],
    success: { status: 204, description: 'Removed.' },
    errors: [400, 401, NOT_LISTER, PHOTO_NOT_FOUND],
  })
  async deletePetPhoto(
    @Param('petId', IdParamPipe) petId: number,
    @Param('photoId') photoId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.photos.remove(petId, photoId, principal.accountId);
  }
}
