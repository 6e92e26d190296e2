export * from './accounts';
export * from './api-keys';
export * from './domains';
export * from './system';
export * from './messages';
