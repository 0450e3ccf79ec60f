import { Module } from '@nestjs/common';
import { WidgetController } from './widget.controller';

/** The embeddable listing shelters put on their websites (`GET /widget.js`), served by the api. */
@Module({ controllers: [WidgetController] })
export class WidgetModule {}
