export * from './application-transitions';
export * from './applications-openapi';
export * from './applications.errors';
export * from './applications.module';
export * from './applications.settings';
export * from './dto/application-form.dto';
export * from './dto/application-message.dto';
export * from './dto/application.dto';
