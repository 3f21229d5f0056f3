import { Card, Cards } from '@/components/mdx/cards';

/** A card that links to a page; `notBuilt` marks what is documented but not built yet. */
export interface LinkCard {
  title: string;
  href: string;
  text: string;
  /** Set for what is documented but not built yet: the card says so. */
  notBuilt?: boolean;
}

export function NotBuiltBadge() {
  return <span className="badge badge-not-built">Not built yet</span>;
}

/** A grid of link cards from data (home platforms, downloads senders and receivers). */
export function LinkCards({ cards }: { cards: readonly LinkCard[] }) {
  return (
    <Cards>
      {cards.map((card) => (
        <Card key={card.href} title={card.title} href={card.href}>
          {card.notBuilt ? <NotBuiltBadge /> : null} {card.text}
        </Card>
      ))}
    </Cards>
  );
}
