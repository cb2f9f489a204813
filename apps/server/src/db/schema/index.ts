// drizzle needs every table in one object; each module's tables live in their own file here.
export * from './admin';
export * from './brand-voice';
export * from './brief-creator';
export * from './campaigns';
export * from './competitor-search';
export * from './crm';
export * from './embedded-idp';
export * from './generations';
export * from './market-research';
export * from './scheduler';
export * from './user-leases';
export * from './users';
