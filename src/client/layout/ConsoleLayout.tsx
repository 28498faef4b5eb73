import { Layout, type LayoutProps } from 'react-admin';
import { ConsoleAppBar } from './ConsoleAppBar';
import { ConsoleMenu } from './ConsoleMenu';

/**
 * react-admin's layout with our app bar and the permission-driven menu. The layout and its content column may shrink below
 * its content's width (a flex item's default min-width is its content), so a wide report table or chart
 * scrolls inside its own box instead of pushing the filter bar and the export buttons off the screen.
 */
export function ConsoleLayout({ children }: LayoutProps) {
  return (
    <Layout appBar={ConsoleAppBar} menu={ConsoleMenu} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
      {children}
    </Layout>
  );
}
