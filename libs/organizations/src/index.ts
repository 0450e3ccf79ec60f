export * from './dto/list-organizations-query.dto';
export * from './dto/organization.dto';
export * from './organizations-openapi';
export * from './organizations.errors';
export * from './organizations.module';
export * from './organizations.service';
