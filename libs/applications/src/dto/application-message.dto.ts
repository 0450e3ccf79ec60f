import { LabelText } from '@app/core';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { APPLICATION_ROLES, ApplicationRole } from '../application-transitions';

@ApiSchema({ name: 'NewApplicationMessage' })
export class NewApplicationMessageDto {
  @ApiProperty({ minLength: 1, maxLength: 5000, description: 'Trimmed.', example: 'Could we meet on Saturday?' })
  @LabelText(1, 5000)
  body: string;
}

@ApiSchema({ name: 'ApplicationMessage' })
export class ApplicationMessageDto {
  @ApiProperty({ example: 'amsg_3kTzq0m1Yd9c2XwB7nQe5RfA' })
  id: string;

  @ApiProperty({ example: 'app_3kTzq0m1Yd9c2XwB7nQe5RfA' })
  applicationId: string;

  @ApiProperty({ enum: APPLICATION_ROLES, enumName: 'ApplicationRole', example: 'applicant' })
  sender: ApplicationRole;

  @ApiProperty({ type: 'string', nullable: true, example: 'Could we meet on Saturday?' })
  body: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-06-01T12:00:00.000Z' })
  createdAt: string;
}
