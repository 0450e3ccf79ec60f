export * from './widget.controller';
export * from './widget.module';
