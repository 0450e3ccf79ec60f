import { IsOptional, IsString, MinLength } from 'class-validator';

/** What only the api app reads. */
export class ApiSettings {
  /** Token for the queue dashboard at /admin/queues; the dashboard is off when unset. */
  @IsOptional()
  @IsString()
  @MinLength(16)
  ADMIN_TOKEN?: string;
}
