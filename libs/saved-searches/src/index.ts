export * from './dto/saved-search.dto';
export * from './matching/saved-search-matcher';
export * from './saved-search-filters';
export * from './saved-searches-openapi';
export * from './saved-searches.errors';
export * from './saved-searches.module';
export * from './saved-searches.service';
export * from './saved-searches.settings';
