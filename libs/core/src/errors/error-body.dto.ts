import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'ErrorDetail' })
export class ErrorDetailDto {
  @ApiPropertyOptional({ example: 'limit' })
  field?: string;

  @ApiProperty({ example: 'limit must not be greater than 100' })
  message: string;
}

/** The body of every error response, from every route of every app. */
@ApiSchema({ name: 'Error' })
export class ErrorBodyDto {
  @ApiProperty({
    description: 'Machine-readable error code; each response lists the codes it can carry.',
    example: 'validation_failed',
  })
  code: string;

  @ApiProperty({ description: 'Human-readable description.', example: 'limit must not be greater than 100' })
  message: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status code.', example: 400 })
  status: number;

  @ApiPropertyOptional({ type: [ErrorDetailDto] })
  details?: ErrorDetailDto[];
}
