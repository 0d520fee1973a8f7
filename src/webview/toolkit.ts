// The one place the webview UI toolkit is registered. It is deprecated upstream; swapping it
// for a successor should only touch this file and the tag names in the renderers.
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeCheckbox, vsCodeRadio, vsCodeRadioGroup, vsCodeTextArea, vsCodeTextField } from '@vscode/webview-ui-toolkit';

const TAGS = ['vscode-button', 'vscode-checkbox', 'vscode-radio', 'vscode-radio-group', 'vscode-text-area', 'vscode-text-field'];

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeCheckbox(), vsCodeRadio(), vsCodeRadioGroup(), vsCodeTextArea(), vsCodeTextField());
}

/**
 * Connects one of each control once, out of sight, while the panel waits: an element's first
 * connection builds its template and styles, so the first question does not pay for it.
 */
export function warmToolkit(): void {
  const slot = document.createElement('div');
  slot.hidden = true;
  slot.setAttribute('aria-hidden', 'true');
  slot.append(...TAGS.map((tag) => document.createElement(tag)));
  document.body.append(slot);
  slot.remove();
}

/** The toolkit's form controls expose their state as properties, not attributes. */
export interface ToolkitValue extends HTMLElement {
  value: string;
  disabled: boolean;
}

export interface ToolkitCheckable extends HTMLElement {
  checked: boolean;
  value: string;
}

export interface ToolkitButton extends HTMLElement {
  disabled: boolean;
}
