export * from './constants.ts';
export * from './api.ts';
export * from './routes.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './credits.ts';
export * from './jobs.ts';
export * from './payments.ts';
