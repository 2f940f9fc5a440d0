/**
 * Chart colours from the --vscode-* variables the workbench sets on the page, re-read whenever the
 * theme changes (the body class names the kind; the variables live on <html>'s style).
 */
import { legible, opaque } from '../../model/colour';

export interface ChartColours {
  success: string;
  failure: string;
  collected: string;
  deduplicated: string;
  duration: string;
  text: string;
  grid: string;
  /** What the charts are drawn on: every series keeps 3:1 against it (see legible). */
  background: string;
  font: string;
  highContrast: boolean;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v || fallback;
}

export function readColours(): ChartColours {
  const style = getComputedStyle(document.body);
  const highContrast =
    document.body.classList.contains('vscode-high-contrast') ||
    document.body.classList.contains('vscode-high-contrast-light');
  const foreground = cssVar(style, '--vscode-foreground', '#cccccc');
  const background = pageBackground(style);
  const series = (name: string, fallback: string): string =>
    legible(opaque(cssVar(style, name, fallback)), background, foreground);
  return {
    success: series('--vscode-charts-green', '#89d185'),
    failure: series('--vscode-charts-red', '#f14c4c'),
    collected: series('--vscode-charts-blue', '#3794ff'),
    deduplicated: series('--vscode-charts-purple', '#b180d7'),
    duration: series('--vscode-charts-orange', '#d18616'),
    text: foreground,
    // High contrast themes draw their borders in contrastBorder; grid lines follow.
    grid: highContrast
      ? cssVar(style, '--vscode-contrastBorder', foreground)
      : cssVar(style, '--vscode-editorWidget-border', cssVar(style, '--vscode-panel-border', 'rgba(128,128,128,0.35)')),
    background,
    font: cssVar(style, '--vscode-font-family', 'system-ui, sans-serif'),
    highContrast,
  };
}

/** The body's painted background (the stylesheet sets it from the theme), else the editor's. */
function pageBackground(style: CSSStyleDeclaration): string {
  const painted = style.backgroundColor;
  if (painted && !/^rgba\(.*,\s*0\)$/.test(painted) && painted !== 'transparent') return painted;
  const dark =
    document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
  return cssVar(style, '--vscode-editor-background', dark ? '#1e1e1e' : '#ffffff');
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
