import type { Page } from 'playwright-core';

/**
 * How far the page scrolls sideways (0 when it fits its window), with the widest elements that stick out past
 * the window's right edge, so a failing check says what to fix.
 */
export async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(`(() => {
    const width = window.innerWidth;
    const overflow = Math.max(0, document.documentElement.scrollWidth - width);
    // What sticks out past the edge; inside a container that scrolls on its own, that is no overflow of the page.
    const culprits = overflow === 0 ? [] : [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .filter((el) => {
        for (let up = el.parentElement; up !== null; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== 'visible') return false;
        }
        return true;
      })
      .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)
      .slice(0, 6)
      .map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).replace(/ /g, '.') : '') +
        ' ' + Math.round(el.getBoundingClientRect().right) + 'px');
    return { overflow, culprits };
  })()`);
}
