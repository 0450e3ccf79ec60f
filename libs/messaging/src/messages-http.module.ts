import { Module } from '@nestjs/common';
import { MessagesController } from './messages.controller';
import { MessagingModule } from './messaging.module';

/** `POST /messages`, `GET /messages` and `GET /messages/{id}`. */
@Module({
  imports: [MessagingModule],
  controllers: [MessagesController],
})
export class MessagesHttpModule {}
