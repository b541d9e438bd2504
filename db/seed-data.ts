import type { ModifierGroup, ModifierOption, OpeningWindow, WeeklyHours } from "../server/domain/catalog-types";
import type { categories, discounts, locations, menus, merchants, products } from "./schema";

/**
 * Demo catalog for local development, end-to-end tests and the public demo.
 *
 * Ids are hand-written rather than generated so that fixtures, docs and bookmarked URLs keep
 * working across re-seeds, and so a re-seed upserts the same rows instead of adding new ones.
 * Prices are integer minor units (1450 = $14.50, 4500 = AED 45.00); rates are decimal strings.
 *
 * Two deliberately different locations exercise the interesting paths: USD vs AED, a US sales
 * tax vs UAE VAT, a 24-hour kitchen vs real opening hours with a longer Friday, and delivery /
 * table-side vs room-service fulfilment.
 */

export type DemoCatalog = {
  merchants: (typeof merchants.$inferInsert)[];
  locations: (typeof locations.$inferInsert)[];
  menus: (typeof menus.$inferInsert)[];
  categories: (typeof categories.$inferInsert)[];
  products: (typeof products.$inferInsert)[];
  discounts: (typeof discounts.$inferInsert)[];
};

const isoWeekdays = ["1", "2", "3", "4", "5", "6", "7"] as const;

function everyDay(window: OpeningWindow): WeeklyHours {
  const hours: WeeklyHours = {};
  for (const day of isoWeekdays) hours[day] = [{ ...window }];
  return hours;
}

type OptionSpec = { key: string; name: string; priceMinor?: number; available?: boolean };

/**
 * Group and option ids are scoped by product: a cart line names (product, group, option), and
 * scoping keeps ids unique even where two products offer the "same" choice at different prices.
 */
function group(
  productKey: string,
  groupKey: string,
  name: string,
  rules: { min: number; max: number; maxPerOption?: number },
  options: OptionSpec[],
): ModifierGroup {
  return {
    id: `mg_${productKey}_${groupKey}`,
    name,
    minSelections: rules.min,
    maxSelections: rules.max,
    maxPerOption: rules.maxPerOption ?? 1,
    options: options.map(
      (option): ModifierOption => ({
        id: `opt_${productKey}_${option.key}`,
        name: option.name,
        priceMinor: option.priceMinor ?? 0,
        available: option.available ?? true,
      }),
    ),
  };
}

/** Required single choice with no price deltas: the kitchen must know, the customer pays the same. */
function doneness(productKey: string): ModifierGroup {
  return group(productKey, "doneness", "Doneness", { min: 1, max: 1 }, [
    { key: "rare", name: "Rare" },
    { key: "medium_rare", name: "Medium rare" },
    { key: "medium", name: "Medium" },
    { key: "medium_well", name: "Medium well" },
    { key: "well_done", name: "Well done" },
  ]);
}

/** Optional multi-choice where doubling up is allowed, so maxPerOption > 1 gets exercised. */
function harborBurgerToppings(productKey: string): ModifierGroup {
  return group(productKey, "extra_toppings", "Extra toppings", { min: 0, max: 3, maxPerOption: 2 }, [
    { key: "bacon", name: "Applewood bacon", priceMinor: 250 },
    { key: "extra_cheese", name: "Extra cheese", priceMinor: 150 },
    { key: "avocado", name: "Avocado", priceMinor: 200 },
    { key: "fried_egg", name: "Fried egg", priceMinor: 200 },
    { key: "caramelized_onions", name: "Caramelized onions", priceMinor: 100 },
  ]);
}

const HARBOR_MERCHANT = "mer_harbor_kitchen";
const HARBOR = "loc_harbor_kitchen_downtown";
const DUNE_MERCHANT = "mer_dune_grill";
const DUNE = "loc_dune_grill_marina";

export const demoCatalog: DemoCatalog = {
  merchants: [
    { id: HARBOR_MERCHANT, slug: "harbor-kitchen", displayName: "Harbor Kitchen", statementDescriptor: "HARBOR KITCHEN" },
    { id: DUNE_MERCHANT, slug: "dune-grill", displayName: "Dune Grill", statementDescriptor: "DUNE GRILL" },
  ],

  locations: [
    {
      id: HARBOR,
      merchantId: HARBOR_MERCHANT,
      slug: "harbor-kitchen-downtown",
      displayName: "Harbor Kitchen Downtown",
      description: "New England comfort food and seafood on the waterfront, open around the clock.",
      timeZone: "America/New_York",
      currency: "usd",
      street: "200 Atlantic Avenue",
      city: "Boston",
      state: "MA",
      zipCode: "02110",
      country: "United States",
      phone: "+1 617-555-0142",
      lat: 42.3597,
      lng: -71.0509,
      // A 24-hour kitchen keeps the demo orderable whatever the visitor's clock says.
      openingHours: everyDay({ opens: "00:00", closes: "24:00" }),
      fulfilment: {
        takeout: { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 15, slotMinutes: 15 },
        delivery: { enabled: true, feeFixMinor: 199, feeRate: "0", leadMinutes: 45, slotMinutes: 15 },
        table_side: { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 0, slotMinutes: 15 },
      },
      fees: {
        // Massachusetts meals tax (state rate).
        taxRate: "0.0625",
        serviceFeeRate: "0.03",
        serviceFeeFixMinor: 0,
        enterpriseFeeRate: "0.01",
        enterpriseFeeFixMinor: 10,
        paymentProcessingFeeRate: "0.029",
        paymentProcessingFeeFixMinor: 30,
      },
      gratuity: { presets: ["0.15", "0.18", "0.20"], defaultRate: null, allowCustomAmount: true, maxRate: "0.5" },
      storefrontUrl: null,
    },
    {
      id: DUNE,
      merchantId: DUNE_MERCHANT,
      slug: "dune-grill-marina",
      displayName: "Dune Grill Marina",
      description: "Charcoal grills and Levantine mezze on Dubai Marina Walk, with room service to the towers next door.",
      timeZone: "Asia/Dubai",
      currency: "aed",
      street: "Marina Walk, Al Majara Tower 2, Shop 4",
      city: "Dubai",
      state: "Dubai",
      // The UAE has no postal codes; "00000" is the conventional placeholder for a not-null field.
      zipCode: "00000",
      country: "United Arab Emirates",
      phone: "+971 4 555 0178",
      lat: 25.0781,
      lng: 55.1403,
      // Friday runs later: the weekend crowd on the Walk stays out past the usual close.
      openingHours: {
        ...everyDay({ opens: "10:00", closes: "23:00" }),
        "5": [{ opens: "12:00", closes: "23:30" }],
      },
      fulfilment: {
        takeout: { enabled: true, feeFixMinor: 0, feeRate: "0", leadMinutes: 20, slotMinutes: 15 },
        room_service: { enabled: true, feeFixMinor: 1000, feeRate: "0", leadMinutes: 30, slotMinutes: 15 },
      },
      fees: {
        // UAE VAT.
        taxRate: "0.05",
        serviceFeeRate: "0.10",
        serviceFeeFixMinor: 0,
        enterpriseFeeRate: "0.01",
        enterpriseFeeFixMinor: 50,
        paymentProcessingFeeRate: "0.029",
        paymentProcessingFeeFixMinor: 100,
      },
      gratuity: { presets: ["0.10", "0.15", "0.20"], defaultRate: null, allowCustomAmount: true, maxRate: "0.5" },
      storefrontUrl: null,
    },
  ],

  menus: [
    { id: "mnu_hk_all_day", locationId: HARBOR, name: "All Day", description: "Served whenever we are open.", availability: null, sortOrder: 0 },
    {
      id: "mnu_hk_breakfast",
      locationId: HARBOR,
      name: "Breakfast",
      description: "Morning plates, every day until 11:30.",
      availability: [{ days: [1, 2, 3, 4, 5, 6, 7], opens: "07:00", closes: "11:30" }],
      sortOrder: 1,
    },
    { id: "mnu_dg_all_day", locationId: DUNE, name: "All Day", description: "Mezze, grills and sweets.", availability: null, sortOrder: 0 },
    {
      id: "mnu_dg_late_night",
      locationId: DUNE,
      name: "Late Night",
      description: "Street-food bites for after the grill winds down.",
      // Two windows because Friday's late menu follows the later Friday close.
      availability: [
        { days: [1, 2, 3, 4, 6, 7], opens: "21:00", closes: "23:00" },
        { days: [5], opens: "21:00", closes: "23:30" },
      ],
      sortOrder: 1,
    },
  ],

  categories: [
    { id: "cat_hk_starters", locationId: HARBOR, menuId: "mnu_hk_all_day", name: "Starters", description: "Chowder, raw bar and things to share.", sortOrder: 0 },
    { id: "cat_hk_burgers", locationId: HARBOR, menuId: "mnu_hk_all_day", name: "Burgers & Sandwiches", description: "", sortOrder: 1 },
    { id: "cat_hk_mains", locationId: HARBOR, menuId: "mnu_hk_all_day", name: "Mains & Salads", description: "", sortOrder: 2 },
    { id: "cat_hk_drinks", locationId: HARBOR, menuId: "mnu_hk_all_day", name: "Drinks", description: "", sortOrder: 3 },
    { id: "cat_hk_desserts", locationId: HARBOR, menuId: "mnu_hk_all_day", name: "Desserts", description: "", sortOrder: 4 },
    { id: "cat_hk_breakfast", locationId: HARBOR, menuId: "mnu_hk_breakfast", name: "Breakfast Plates", description: "", sortOrder: 5 },

    { id: "cat_dg_mezze", locationId: DUNE, menuId: "mnu_dg_all_day", name: "Mezze", description: "Served with warm pita.", sortOrder: 0 },
    { id: "cat_dg_grills", locationId: DUNE, menuId: "mnu_dg_all_day", name: "Charcoal Grills", description: "", sortOrder: 1 },
    { id: "cat_dg_sweets", locationId: DUNE, menuId: "mnu_dg_all_day", name: "Sweets", description: "", sortOrder: 2 },
    { id: "cat_dg_drinks", locationId: DUNE, menuId: "mnu_dg_all_day", name: "Drinks", description: "", sortOrder: 3 },
    { id: "cat_dg_late_night", locationId: DUNE, menuId: "mnu_dg_late_night", name: "Late Night Bites", description: "", sortOrder: 4 },
  ],

  // sortOrder is location-wide (the products index is on location, sortOrder), so it follows the
  // category order. Popularity values are distinct within a location so "popular" is a total order.
  products: [
    // Harbor Kitchen: starters
    {
      id: "prd_hk_clam_chowder",
      locationId: HARBOR,
      categoryId: "cat_hk_starters",
      name: "New England Clam Chowder",
      description: "Creamy chowder with littleneck clams, smoked bacon and potatoes, served with oyster crackers.",
      priceMinor: 895,
      imageUrl: "",
      popularity: 940,
      sortOrder: 10,
      modifierGroups: [
        group("hk_clam_chowder", "size", "Size", { min: 1, max: 1 }, [
          { key: "cup", name: "Cup" },
          { key: "bowl", name: "Bowl", priceMinor: 400 },
          // The bakery supplies the bread bowls; when they run out only this option disappears.
          { key: "bread_bowl", name: "Sourdough bread bowl", priceMinor: 650, available: false },
        ]),
      ],
    },
    {
      id: "prd_hk_crispy_calamari",
      locationId: HARBOR,
      categoryId: "cat_hk_starters",
      name: "Crispy Calamari",
      description: "Flash-fried Point Judith calamari with banana peppers and lemon aioli.",
      priceMinor: 1450,
      imageUrl: "",
      popularity: 610,
      sortOrder: 20,
      modifierGroups: [],
    },
    {
      id: "prd_hk_oysters",
      locationId: HARBOR,
      categoryId: "cat_hk_starters",
      name: "Oysters on the Half Shell",
      description: "Six Duxbury oysters with mignonette, cocktail sauce and lemon.",
      priceMinor: 1800,
      imageUrl: "",
      // Sold out: the one unavailable product, so the UI's sold-out state has something to show.
      available: false,
      popularity: 430,
      sortOrder: 30,
      modifierGroups: [],
    },

    // Harbor Kitchen: burgers & sandwiches
    {
      id: "prd_hk_smash_burger",
      locationId: HARBOR,
      categoryId: "cat_hk_burgers",
      name: "Double Smash Burger",
      description: "Two smashed beef patties, American cheese, pickles, griddled onions and house sauce on a potato roll.",
      priceMinor: 1450,
      imageUrl: "",
      popularity: 990,
      sortOrder: 40,
      modifierGroups: [
        group("hk_smash_burger", "side", "Side", { min: 1, max: 1 }, [
          { key: "fries", name: "Fries" },
          { key: "sweet_potato_fries", name: "Sweet potato fries", priceMinor: 150 },
          { key: "side_salad", name: "Side salad" },
        ]),
        harborBurgerToppings("hk_smash_burger"),
      ],
    },
    {
      id: "prd_hk_harbor_burger",
      locationId: HARBOR,
      categoryId: "cat_hk_burgers",
      name: "Harbor Burger",
      description: "Eight-ounce chuck burger with aged Vermont cheddar, lettuce, tomato and garlic mayo on brioche.",
      priceMinor: 1695,
      imageUrl: "",
      popularity: 870,
      sortOrder: 50,
      modifierGroups: [doneness("hk_harbor_burger"), harborBurgerToppings("hk_harbor_burger")],
    },
    {
      id: "prd_hk_lobster_roll",
      locationId: HARBOR,
      categoryId: "cat_hk_burgers",
      name: "Lobster Roll",
      description: "A quarter pound of fresh lobster on a buttered split-top roll, with chips and a pickle.",
      priceMinor: 2850,
      imageUrl: "",
      popularity: 960,
      sortOrder: 60,
      modifierGroups: [
        group("hk_lobster_roll", "style", "Style", { min: 1, max: 1 }, [
          { key: "maine", name: "Maine (chilled, lemon mayo)" },
          { key: "connecticut", name: "Connecticut (warm, brown butter)" },
        ]),
      ],
    },
    {
      id: "prd_hk_chicken_sandwich",
      locationId: HARBOR,
      categoryId: "cat_hk_burgers",
      name: "Crispy Chicken Sandwich",
      description: "Buttermilk fried chicken thigh, hot honey, slaw and pickles on a toasted bun.",
      priceMinor: 1395,
      imageUrl: "",
      popularity: 720,
      sortOrder: 70,
      modifierGroups: [],
    },

    // Harbor Kitchen: mains & salads
    {
      id: "prd_hk_fish_and_chips",
      locationId: HARBOR,
      categoryId: "cat_hk_mains",
      name: "Fish & Chips",
      description: "Beer-battered Atlantic cod with fries, coleslaw and tartar sauce.",
      priceMinor: 1995,
      imageUrl: "",
      popularity: 890,
      sortOrder: 80,
      modifierGroups: [],
    },
    {
      id: "prd_hk_grilled_salmon",
      locationId: HARBOR,
      categoryId: "cat_hk_mains",
      name: "Grilled Salmon",
      description: "Salmon fillet with lemon-herb quinoa, charred broccolini and salsa verde.",
      priceMinor: 2495,
      imageUrl: "",
      popularity: 640,
      sortOrder: 90,
      modifierGroups: [],
    },
    {
      id: "prd_hk_kale_caesar",
      locationId: HARBOR,
      categoryId: "cat_hk_mains",
      name: "Kale Caesar",
      description: "Tuscan kale and romaine, parmesan, sourdough croutons and anchovy dressing.",
      priceMinor: 1250,
      imageUrl: "",
      popularity: 530,
      sortOrder: 100,
      modifierGroups: [
        group("hk_kale_caesar", "add_protein", "Add protein", { min: 0, max: 1 }, [
          { key: "grilled_chicken", name: "Grilled chicken", priceMinor: 500 },
          { key: "shrimp", name: "Garlic shrimp", priceMinor: 700 },
          { key: "salmon", name: "Salmon", priceMinor: 900 },
        ]),
      ],
    },

    // Harbor Kitchen: drinks
    {
      id: "prd_hk_lemonade",
      locationId: HARBOR,
      categoryId: "cat_hk_drinks",
      name: "Fresh Lemonade",
      description: "Squeezed to order, lightly sweetened.",
      priceMinor: 450,
      imageUrl: "",
      popularity: 580,
      sortOrder: 110,
      modifierGroups: [
        group("hk_lemonade", "size", "Size", { min: 1, max: 1 }, [
          { key: "regular", name: "Regular" },
          { key: "large", name: "Large", priceMinor: 150 },
        ]),
      ],
    },
    {
      id: "prd_hk_cold_brew",
      locationId: HARBOR,
      categoryId: "cat_hk_drinks",
      name: "Cold Brew Coffee",
      description: "Steeped for eighteen hours from a local roaster's Colombian beans.",
      priceMinor: 500,
      imageUrl: "",
      popularity: 660,
      sortOrder: 120,
      modifierGroups: [
        group("hk_cold_brew", "milk", "Milk", { min: 0, max: 1 }, [
          { key: "whole", name: "Whole milk" },
          { key: "oat", name: "Oat milk", priceMinor: 75 },
          { key: "almond", name: "Almond milk", priceMinor: 75 },
        ]),
      ],
    },

    // Harbor Kitchen: desserts
    {
      id: "prd_hk_boston_cream_pie",
      locationId: HARBOR,
      categoryId: "cat_hk_desserts",
      name: "Boston Cream Pie",
      description: "Sponge cake layered with vanilla custard under a dark chocolate glaze.",
      priceMinor: 895,
      imageUrl: "",
      popularity: 700,
      sortOrder: 130,
      modifierGroups: [],
    },
    {
      id: "prd_hk_cider_donuts",
      locationId: HARBOR,
      categoryId: "cat_hk_desserts",
      name: "Apple Cider Donuts",
      description: "Three warm cider donuts rolled in cinnamon sugar.",
      priceMinor: 695,
      imageUrl: "",
      popularity: 560,
      sortOrder: 140,
      modifierGroups: [],
    },

    // Harbor Kitchen: breakfast menu
    {
      id: "prd_hk_lobster_benedict",
      locationId: HARBOR,
      categoryId: "cat_hk_breakfast",
      name: "Lobster Benedict",
      description: "Poached eggs and butter-poached lobster on English muffins with hollandaise and home fries.",
      priceMinor: 2250,
      imageUrl: "",
      popularity: 810,
      sortOrder: 150,
      modifierGroups: [],
    },
    {
      id: "prd_hk_blueberry_pancakes",
      locationId: HARBOR,
      categoryId: "cat_hk_breakfast",
      name: "Blueberry Pancakes",
      description: "Three buttermilk pancakes with wild Maine blueberries, whipped butter and maple syrup.",
      priceMinor: 1295,
      imageUrl: "",
      popularity: 760,
      sortOrder: 160,
      modifierGroups: [
        group("hk_blueberry_pancakes", "add_ons", "Add-ons", { min: 0, max: 2 }, [
          { key: "bacon", name: "Side of bacon", priceMinor: 400 },
          { key: "vermont_maple", name: "Vermont maple syrup upgrade", priceMinor: 250 },
        ]),
      ],
    },
    {
      id: "prd_hk_breakfast_sandwich",
      locationId: HARBOR,
      categoryId: "cat_hk_breakfast",
      name: "Harbor Breakfast Sandwich",
      description: "Egg, cheddar and bacon on a toasted brioche bun.",
      priceMinor: 1150,
      imageUrl: "",
      popularity: 680,
      sortOrder: 170,
      modifierGroups: [
        group("hk_breakfast_sandwich", "egg_style", "Egg style", { min: 1, max: 1 }, [
          { key: "fried", name: "Fried" },
          { key: "scrambled", name: "Scrambled" },
          { key: "over_easy", name: "Over easy" },
        ]),
      ],
    },

    // Dune Grill: mezze
    {
      id: "prd_dg_hummus",
      locationId: DUNE,
      categoryId: "cat_dg_mezze",
      name: "Hummus Beiruti",
      description: "Chickpea purée with tahini, garlic, lemon, chilli and parsley.",
      priceMinor: 3200,
      imageUrl: "",
      popularity: 930,
      sortOrder: 10,
      modifierGroups: [],
    },
    {
      id: "prd_dg_moutabal",
      locationId: DUNE,
      categoryId: "cat_dg_mezze",
      name: "Moutabal",
      description: "Smoky fire-roasted aubergine with tahini, pomegranate and olive oil.",
      priceMinor: 3200,
      imageUrl: "",
      popularity: 620,
      sortOrder: 20,
      modifierGroups: [],
    },
    {
      id: "prd_dg_fattoush",
      locationId: DUNE,
      categoryId: "cat_dg_mezze",
      name: "Fattoush",
      description: "Crisp vegetables, toasted pita, sumac and pomegranate molasses dressing.",
      priceMinor: 3800,
      imageUrl: "",
      popularity: 710,
      sortOrder: 30,
      modifierGroups: [
        group("dg_fattoush", "add_protein", "Add protein", { min: 0, max: 1 }, [
          { key: "grilled_halloumi", name: "Grilled halloumi", priceMinor: 1200 },
          { key: "chicken_tawook", name: "Chicken tawook", priceMinor: 1500 },
        ]),
      ],
    },
    {
      id: "prd_dg_falafel",
      locationId: DUNE,
      categoryId: "cat_dg_mezze",
      name: "Falafel (6 pcs)",
      description: "Crisp chickpea and herb falafel with tahini sauce and pickled turnips.",
      priceMinor: 2900,
      imageUrl: "",
      popularity: 680,
      sortOrder: 40,
      modifierGroups: [],
    },
    {
      id: "prd_dg_halloumi",
      locationId: DUNE,
      categoryId: "cat_dg_mezze",
      name: "Grilled Halloumi",
      description: "Charcoal-grilled halloumi with za'atar, cherry tomatoes and mint.",
      priceMinor: 4200,
      imageUrl: "",
      popularity: 590,
      sortOrder: 50,
      modifierGroups: [],
    },

    // Dune Grill: charcoal grills
    {
      id: "prd_dg_mixed_grill",
      locationId: DUNE,
      categoryId: "cat_dg_grills",
      name: "Mixed Grill Platter",
      description: "Shish tawook, lamb kofta and lamb chops with grilled vegetables and garlic toum.",
      priceMinor: 12500,
      imageUrl: "",
      popularity: 980,
      sortOrder: 60,
      modifierGroups: [
        group("dg_mixed_grill", "side", "Side", { min: 1, max: 1 }, [
          { key: "saffron_rice", name: "Saffron rice" },
          { key: "fries", name: "Fries" },
          { key: "tabbouleh", name: "Tabbouleh", priceMinor: 1000 },
        ]),
      ],
    },
    {
      id: "prd_dg_lamb_chops",
      locationId: DUNE,
      categoryId: "cat_dg_grills",
      name: "Lamb Chops",
      description: "Four Australian lamb chops marinated in seven spices, with grilled tomato and onion.",
      priceMinor: 11500,
      imageUrl: "",
      popularity: 820,
      sortOrder: 70,
      modifierGroups: [doneness("dg_lamb_chops")],
    },
    {
      id: "prd_dg_shish_tawook",
      locationId: DUNE,
      categoryId: "cat_dg_grills",
      name: "Shish Tawook",
      description: "Yoghurt and garlic marinated chicken skewers with fries and toum.",
      priceMinor: 6500,
      imageUrl: "",
      popularity: 900,
      sortOrder: 80,
      modifierGroups: [],
    },
    {
      id: "prd_dg_wagyu_burger",
      locationId: DUNE,
      categoryId: "cat_dg_grills",
      name: "Wagyu Burger",
      description: "Wagyu beef patty, smoked cheddar, caramelised onions and sumac mayo on brioche.",
      priceMinor: 7900,
      imageUrl: "",
      popularity: 860,
      sortOrder: 90,
      modifierGroups: [
        doneness("dg_wagyu_burger"),
        group("dg_wagyu_burger", "extra_toppings", "Extra toppings", { min: 0, max: 3, maxPerOption: 2 }, [
          { key: "beef_bacon", name: "Beef bacon", priceMinor: 900 },
          { key: "halloumi", name: "Grilled halloumi", priceMinor: 800 },
          { key: "fried_egg", name: "Fried egg", priceMinor: 500 },
          { key: "jalapenos", name: "Jalapeños", priceMinor: 300 },
        ]),
      ],
    },
    {
      id: "prd_dg_hammour",
      locationId: DUNE,
      categoryId: "cat_dg_grills",
      name: "Grilled Hammour",
      description: "Whole local hammour, charcoal-grilled with lemon, garlic and coriander.",
      priceMinor: 9800,
      imageUrl: "",
      // Sold out: depends on the morning's catch, so it is the location's one unavailable product.
      available: false,
      popularity: 540,
      sortOrder: 100,
      modifierGroups: [],
    },

    // Dune Grill: sweets
    {
      id: "prd_dg_kunafa",
      locationId: DUNE,
      categoryId: "cat_dg_sweets",
      name: "Kunafa",
      description: "Warm shredded pastry over melted Akkawi cheese, with orange-blossom syrup and pistachio.",
      priceMinor: 3500,
      imageUrl: "",
      popularity: 790,
      sortOrder: 110,
      modifierGroups: [],
    },
    {
      id: "prd_dg_umm_ali",
      locationId: DUNE,
      categoryId: "cat_dg_sweets",
      name: "Umm Ali",
      description: "Baked puff-pastry pudding with milk, nuts and coconut.",
      priceMinor: 3200,
      imageUrl: "",
      popularity: 560,
      sortOrder: 120,
      modifierGroups: [],
    },

    // Dune Grill: drinks
    {
      id: "prd_dg_mint_lemonade",
      locationId: DUNE,
      categoryId: "cat_dg_drinks",
      name: "Mint Lemonade",
      description: "Blended lemon and fresh mint over ice.",
      priceMinor: 2400,
      imageUrl: "",
      popularity: 880,
      sortOrder: 130,
      modifierGroups: [
        group("dg_mint_lemonade", "size", "Size", { min: 1, max: 1 }, [
          { key: "regular", name: "Regular" },
          { key: "large", name: "Large", priceMinor: 800 },
        ]),
      ],
    },
    {
      id: "prd_dg_karak_chai",
      locationId: DUNE,
      categoryId: "cat_dg_drinks",
      name: "Karak Chai",
      description: "Strong black tea simmered with evaporated milk, cardamom and saffron.",
      priceMinor: 1200,
      imageUrl: "",
      popularity: 750,
      sortOrder: 140,
      modifierGroups: [],
    },

    // Dune Grill: late-night menu
    {
      id: "prd_dg_chicken_shawarma",
      locationId: DUNE,
      categoryId: "cat_dg_late_night",
      name: "Chicken Shawarma Wrap",
      description: "Spit-roasted chicken, garlic toum, pickles and fries rolled in saj bread.",
      priceMinor: 3200,
      imageUrl: "",
      popularity: 950,
      sortOrder: 150,
      modifierGroups: [
        group("dg_chicken_shawarma", "extras", "Extras", { min: 0, max: 3, maxPerOption: 2 }, [
          { key: "extra_toum", name: "Extra garlic toum", priceMinor: 300 },
          { key: "cheese", name: "Melted cheese", priceMinor: 500 },
          { key: "spicy", name: "Spicy sauce", priceMinor: 0 },
        ]),
      ],
    },
    {
      id: "prd_dg_loaded_fries",
      locationId: DUNE,
      categoryId: "cat_dg_late_night",
      name: "Loaded Za'atar Fries",
      description: "Fries with za'atar, melted cheese, garlic sauce and pickled chillies.",
      priceMinor: 2800,
      imageUrl: "",
      popularity: 770,
      sortOrder: 160,
      modifierGroups: [],
    },
    {
      id: "prd_dg_cheese_manakeesh",
      locationId: DUNE,
      categoryId: "cat_dg_late_night",
      name: "Cheese Manakeesh",
      description: "Stone-baked flatbread with Akkawi and mozzarella.",
      priceMinor: 2600,
      imageUrl: "",
      popularity: 650,
      sortOrder: 170,
      modifierGroups: [],
    },
  ],

  discounts: [
    { id: "dsc_hk_welcome10", locationId: HARBOR, code: "WELCOME10", rate: "0.10", amountMinor: null, minimumSubtotalMinor: 0, active: true },
    { id: "dsc_hk_fiveoff", locationId: HARBOR, code: "FIVEOFF", rate: null, amountMinor: 500, minimumSubtotalMinor: 2500, active: true },
    // Kept inactive so the "code exists but is not redeemable" path can be demonstrated.
    { id: "dsc_hk_expired20", locationId: HARBOR, code: "EXPIRED20", rate: "0.20", amountMinor: null, minimumSubtotalMinor: 0, active: false },
    { id: "dsc_dg_marina15", locationId: DUNE, code: "MARINA15", rate: "0.15", amountMinor: null, minimumSubtotalMinor: 0, active: true },
  ],
};
