export * from './constants.ts';
export * from './api.ts';
export * from './routes.ts';
