export * from './accounts';
export * from './api-keys';
export * from './domains';
export * from './system';
export * from './messages';
export * from './webhooks';
export * from './statistics';
export * from './suppressions';
