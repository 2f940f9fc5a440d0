/**
 * Chart colours from the --vscode-* variables the workbench sets on the page, re-read whenever the
 * theme changes (the body class names the kind; the variables live on <html>'s style).
 */
import { opaque } from '../../analyticsModel/colour';

export interface ChartColours {
  success: string;
  failure: string;
  collected: string;
  deduplicated: string;
  duration: string;
  text: string;
  grid: string;
  font: string;
  highContrast: boolean;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v || fallback;
}

export function readColours(): ChartColours {
  const style = getComputedStyle(document.body);
  const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  const foreground = cssVar(style, '--vscode-foreground', '#cccccc');
  return {
    success: opaque(cssVar(style, '--vscode-charts-green', '#89d185')),
    failure: opaque(cssVar(style, '--vscode-charts-red', '#f14c4c')),
    collected: opaque(cssVar(style, '--vscode-charts-blue', '#3794ff')),
    deduplicated: opaque(cssVar(style, '--vscode-charts-purple', '#b180d7')),
    duration: opaque(cssVar(style, '--vscode-charts-orange', '#d18616')),
    text: foreground,
    // High contrast themes draw their borders in contrastBorder; grid lines follow.
    grid: highContrast
      ? cssVar(style, '--vscode-contrastBorder', foreground)
      : cssVar(style, '--vscode-editorWidget-border', cssVar(style, '--vscode-panel-border', 'rgba(128,128,128,0.35)')),
    font: cssVar(style, '--vscode-font-family', 'system-ui, sans-serif'),
    highContrast,
  };
}

/** Calls `changed` when the theme kind or the variables change; returns a disposer. */
export function watchTheme(changed: () => void): () => void {
  let queued = false;
  const observer = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      changed();
    });
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  return () => observer.disconnect();
}
