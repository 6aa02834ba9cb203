import express, { type Express, type Router } from 'express';

/** The admin API on its own listener: only `/api/v1/...`, and a JSON 404 for anything else. */
export function createAdminApiApp(api: Router): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(api);
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'no such route' } });
  });
  return app;
}
