/** The side bar toggle of spec section 2 is react-admin's own (it keeps the open state in the store). */
export { SidebarToggleButton as SidebarToggle } from 'react-admin';
