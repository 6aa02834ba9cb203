import type { Page } from 'playwright-core';

/** Signs in through the form, as a person would, and waits for the signed-in frame. */
export async function signIn(page: Page, adminUrl: string, key: string): Promise<void> {
  await page.goto(`${adminUrl}/console/`);
  await page.getByLabel('Admin API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
