/** The wizard lives in features/wizard; this path stays for the status page's import until it moves too. */
export { clearWizard } from '../../features/wizard/wizard-state';
