// The one place the webview UI toolkit is registered. It is deprecated upstream; swapping it
// for a successor should only touch this file and the tag names in the renderers.
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeCheckbox, vsCodeRadio, vsCodeRadioGroup, vsCodeTextArea, vsCodeTextField } from '@vscode/webview-ui-toolkit';

export function registerToolkit(): void {
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeCheckbox(), vsCodeRadio(), vsCodeRadioGroup(), vsCodeTextArea(), vsCodeTextField());
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
